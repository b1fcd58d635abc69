/**
 * Calls that must reach the server in the order they were made, each after the last has answered.
 * The editing cookies are such calls: an editor that unmounts and mounts again (another page, a
 * new render of the route) turns them off and on at once, and if the "off" answer arrived last
 * the frame would show the published page instead of the drafts.
 */
export function inOrder<A extends unknown[], T>(
  call: (...args: A) => Promise<T>,
): (...args: A) => Promise<T | undefined> {
  let last: Promise<unknown> = Promise.resolve();
  return (...args: A) => {
    const next = last.then(() => call(...args).catch(() => undefined));
    last = next;
    return next;
  };
}
