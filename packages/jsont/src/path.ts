/** A split variable reference: `foo.0.bar` is `["foo", 0, "bar"]`, `@` is `["@"]`. */
export type Path = readonly (string | number)[];
