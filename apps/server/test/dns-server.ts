/**
 * A DNS server for tests (dns2 on a local UDP port): answers A, AAAA, CNAME and TXT questions
 * from records the test sets, NXDOMAIN for names it has none of. Point DNS_SERVERS at `address`.
 */
import dns2 from "dns2";

const { Packet } = dns2;
/** The response code of a name that does not exist (RFC 1035). */
const NXDOMAIN = 3;
type RecordType = "A" | "AAAA" | "CNAME" | "TXT";
export interface TestRecord {
  type: RecordType;
  value: string;
}

export interface TestDnsServer {
  /** "127.0.0.1:<port>", for DNS_SERVERS. */
  address: string;
  /** Replaces the records of a name (none: the name does not exist). */
  set(name: string, records: TestRecord[]): void;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, TestRecord[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      // dns2's own answer type (its @types lag behind the package): the fields we set.
      const response = Packet.createResponseFromRequest(request) as unknown as {
        header: { rcode: number };
        answers: Record<string, unknown>[];
      };
      const answer = () => send(response as never);
      const [question] = request.questions;
      const name = String(question?.name ?? "").toLowerCase();
      const records = zone.get(name);
      if (!records?.length) {
        response.header.rcode = NXDOMAIN;
        answer();
        return;
      }
      for (const r of records) {
        if (Packet.TYPE[r.type] !== question!.type) continue;
        const base = { name, type: Packet.TYPE[r.type], class: Packet.CLASS.IN, ttl: 60 };
        if (r.type === "A" || r.type === "AAAA") response.answers.push({ ...base, address: r.value });
        else if (r.type === "CNAME") response.answers.push({ ...base, domain: r.value });
        else response.answers.push({ ...base, data: r.value });
      }
      answer();
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = (listening as { udp: { port: number } }).udp.port;
  return {
    address: `127.0.0.1:${port}`,
    set: (name, records) => zone.set(name.toLowerCase(), records),
    close: async () => {
      await server.close();
    },
  };
}
