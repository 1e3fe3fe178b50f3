import { useModelStorage } from '@inkling/react';
import { cpuStorage } from './cpuStorage.js';

/**
 * What the picker says of each CPU model ("downloaded", or "downloads 386 MB")
 * and the free space, from the models this browser has stored.
 */
export function useCpuDownloads() {
  const { models, room } = useModelStorage(cpuStorage);
  const stored = new Set(models.filter((m) => m.complete).map((m) => m.model));
  return {
    note: (url: string, sizeMB: number | null) =>
      stored.has(url) ? 'downloaded' : sizeMB === null ? 'downloads on first use' : `downloads ${Math.round(sizeMB)} MB`,
    freeText: room ? `${gigabytes(room.free)} free on this device` : undefined,
  };
}

function gigabytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}
