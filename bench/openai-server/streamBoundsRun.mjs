// Runs two builds of streamBounds.ts (see its header) in alternating order: node streamBoundsRun.mjs BEFORE.mjs AFTER.mjs [reps]
const [beforePath, afterPath, repsArg] = process.argv.slice(2);
const before = await import(beforePath);
const after = await import(afterPath);
const reps = Number(repsArg ?? 10);
const events = 20_000;
const median = (values) => values.toSorted((x, y) => x - y)[Math.floor(values.length / 2)];
const perChunk = (ms) => ((ms * 1000) / events).toFixed(2);
for (const perRead of [1, 16]) {
  await before.run(2000, perRead);
  await after.run(2000, perRead);
  const times = { before: [], after: [] };
  for (let i = 0; i < reps; i += 1) {
    for (const name of i % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
      times[name].push((await (name === 'before' ? before : after).run(events, perRead)).ms);
    }
  }
  const ratios = times.after.map((a, i) => a / times.before[i]).toSorted((x, y) => x - y);
  console.log(
    JSON.stringify({
      events,
      perRead,
      reps,
      usPerChunkBefore: times.before.map(perChunk),
      usPerChunkAfter: times.after.map(perChunk),
      medianBefore: perChunk(median(times.before)),
      medianAfter: perChunk(median(times.after)),
      ratioAfterOverBefore: { min: ratios[0].toFixed(3), median: median(ratios).toFixed(3), max: ratios.at(-1).toFixed(3) },
    }),
  );
}
