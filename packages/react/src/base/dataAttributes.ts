/**
 * `data-*` attributes in a prop bag: how components expose their state to
 * CSS and tests (`[data-state="ready"]`). `undefined` leaves one out.
 */
export type DataAttributes = { [name: `data-${string}`]: string | undefined };
