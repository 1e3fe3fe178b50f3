/**
 * A test for the messages of one protocol: objects whose `tag` field is one
 * of `tags` (and, when given, whose `id` field has type `idType`). What
 * else arrives on the same port or worker (another library's messages, an
 * extension's) fails it and is ignored.
 *
 * @example
 * const isHostMessage = messageMatcher<HostMessage>('t', ['welcome', 'chunk', 'result']);
 * port.onmessage = (event) => { if (isHostMessage(event.data)) receive(event.data); };
 */
export function messageMatcher<Message>(
  tag: string,
  tags: readonly string[],
  idType?: 'number' | 'string',
): (data: unknown) => data is Message {
  const known = new Set(tags);
  return (data: unknown): data is Message => {
    if (typeof data !== 'object' || data === null) return false;
    const record = data as Record<string, unknown>;
    return known.has(record[tag] as string) && (idType === undefined || typeof record.id === idType);
  };
}
