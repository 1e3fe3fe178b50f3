import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packPackages } from './pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    consumerRoot: string;
    tarballs: Record<string, string>;
  }
}

/** Packs the packages once, into a folder outside the workspace that every consumer app installs from. */
export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'inkling-consumer-'));
  const started = performance.now();
  mkdirSync(join(root, 'tarballs'));
  let tarballs: Record<string, string>;
  try {
    tarballs = packPackages(join(root, 'tarballs'));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  console.log(
    `consumer: packed ${Object.keys(tarballs).length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s into ${root}`,
  );
  project.provide('consumerRoot', root);
  project.provide('tarballs', tarballs);
  return () => rmSync(root, { recursive: true, force: true });
}
