import { ModelInUseError, type ModelStorage, type StorageRoom, type StoredModel } from '@inkling/scheduler';
import { type ButtonHTMLAttributes, type HTMLAttributes, useState } from 'react';
import { formatBytes } from './core/formatLoad.js';
import type { DataAttributes } from '../base/dataAttributes.js';
import { type UseModelStorageResult, useModelStorage } from './useModelStorage.js';

/** The words of `<ModelManager>`; each has a default in English. */
export interface ModelManagerLabels {
  /** Default `'Stored models'`. */
  title: string;
  /** Default `'No models are stored on this device.'`. */
  empty: string;
  /** Default `'Reading stored models…'`. */
  loading: string;
  /** Default: `'{used} used, {free} free'`. */
  room: (used: string, free: string) => string;
  /** Where the browser's free figure is made up (Chrome 138+ reports 10 GB more than is used, whatever the disk holds). Default: `'{used} used'`. */
  used: (used: string) => string;
  /** Default `'Kept: the browser will not clear them to free space.'`. */
  persisted: string;
  /** Default `'The browser may clear them when space runs low.'`. */
  notPersisted: string;
  /** Default `'Keep them'`. */
  persist: string;
  /** Default: `'{bytes} of {total}, partial'`. */
  partial: (bytes: string, total: string) => string;
  /** A stored model whose size the browser keeps to itself (its built-in models). Default `'Size decided by the browser'`. */
  sizeUnknown: string;
  /** One the browser is downloading, size unknown. Default `'Being downloaded by the browser'`. */
  downloadingUnknown: string;
  /**
   * One a tab (this one or another) is downloading (`StoredModel.busy`), with
   * what has arrived when anything has. Default: `'Downloading: {bytes} of {total}'`,
   * `'Downloading in this or another tab'` before the first bytes.
   */
  downloading: (bytes: string | undefined, total: string | undefined) => string;
  /** After the size of one a tab is loading. Default `'loading'`. */
  loadingModel: string;
  /** Instead of Delete while a tab downloads or loads it. Default `'Can be deleted once that ends'`. */
  busy: string;
  /** A delete refused because a tab was downloading or loading it. Default: `'{name} is being downloaded or loaded, here or in another tab, so it was kept. Delete it once that ends.'`. */
  inUse: (name: string) => string;
  /** Shown instead of Delete for a model the page cannot delete (`StoredModel.cannotDelete`). Default: the storage's reason as it is. */
  managed: (reason: string) => string;
  /** Default `'Delete'`. */
  delete: string;
  /** Default `'Delete all'`. */
  deleteAll: string;
  /** Default: `'Delete {name}?'`, or `'Delete every stored model?'` for all. */
  confirm: (name: string | undefined) => string;
  /** Default `'Cancel'`. */
  cancel: string;
  /** Default `'Deleting…'`. */
  deleting: string;
}

const DEFAULT_LABELS: ModelManagerLabels = {
  title: 'Stored models',
  empty: 'No models are stored on this device.',
  loading: 'Reading stored models…',
  room: (used, free) => `${used} used, ${free} free`,
  used: (used) => `${used} used`,
  persisted: 'Kept: the browser will not clear them to free space.',
  notPersisted: 'The browser may clear them when space runs low.',
  persist: 'Keep them',
  partial: (bytes, total) => `${bytes} of ${total}, partial`,
  sizeUnknown: 'Size decided by the browser',
  downloadingUnknown: 'Being downloaded by the browser',
  downloading: (bytes, total) =>
    bytes === undefined ? 'Downloading in this or another tab' : `Downloading: ${bytes}${total === undefined ? '' : ` of ${total}`}`,
  loadingModel: 'loading',
  busy: 'Can be deleted once that ends',
  inUse: (name) => `${name} is being downloaded or loaded, here or in another tab, so it was kept. Delete it once that ends.`,
  managed: (reason) => reason,
  delete: 'Delete',
  deleteAll: 'Delete all',
  confirm: (name) => (name === undefined ? 'Delete every stored model?' : `Delete ${name}?`),
  cancel: 'Cancel',
  deleting: 'Deleting…',
};

/** Props of `<ModelManager>` and `useModelManager`. */
export interface ModelManagerProps {
  /** The engine package's storage (`wllamaModelStorage()`, `webllmModelStorage()`), made once. Required. */
  storage: ModelStorage;
  /** How a model is named. Default: its `label`, else the last part of its URL or id. */
  modelName?: (model: string) => string;
  /** Default: English (see `ModelManagerLabels`). */
  labels?: Partial<ModelManagerLabels>;
}

/** One row of the list, with its size text and buttons' props. */
export interface ModelManagerRow {
  model: StoredModel;
  name: string;
  sizeText: string;
  /** Why it cannot be deleted here, and where the person can; `undefined` when Delete works (its button is then enabled). */
  managedText: string | undefined;
  rowProps: HTMLAttributes<HTMLElement> & DataAttributes;
  deleteButtonProps: ButtonHTMLAttributes<HTMLButtonElement>;
}

/**
 * The behaviour of `<ModelManager>`: the stored models as rows with their
 * sizes, the storage figures, persistence, and delete with a confirmation
 * step (one model or all), as prop bags.
 *
 * @example
 * const m = useModelManager({ storage });
 * return <ul>{m.rows.map((r) => <li key={r.name} {...r.rowProps}>{r.name} {r.sizeText} <button {...r.deleteButtonProps} /></li>)}</ul>;
 */
export function useModelManager(props: ModelManagerProps) {
  const storage: UseModelStorageResult = useModelStorage(props.storage);
  const labels = { ...DEFAULT_LABELS, ...props.labels };
  const nameOf = props.modelName ?? defaultModelName;
  // The model awaiting confirmation ('*' for all), or none.
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const busy = storage.deleting !== undefined;
  const rows = storage.models.map((model) =>
    managerRow(model, props.modelName?.(model.model) ?? model.label ?? defaultModelName(model.model), labels, busy, setConfirming),
  );
  const deletable = rows.filter((row) => row.managedText === undefined).length;
  const confirmName =
    confirming === undefined || confirming === '*'
      ? undefined
      : (rows.find((row) => row.model.model === confirming)?.name ?? nameOf(confirming));
  return {
    storage,
    labels,
    rows,
    /** How many rows Delete can remove (the rest the browser keeps). */
    deletable,
    confirming,
    roomText: roomText(storage.room, labels),
    /** What went wrong with the last action, in words a person can act on; `undefined` without an error. */
    errorText:
      storage.error === undefined
        ? undefined
        : errorText(storage.error, (model) => rows.find((row) => row.model.model === model)?.name ?? nameOf(model), labels),
    persistText: storage.persisted === undefined ? undefined : storage.persisted ? labels.persisted : labels.notPersisted,
    confirmText: confirming === undefined ? undefined : labels.confirm(confirmName),
    rootProps: {
      className: 'inkling-model-manager',
      'aria-busy': storage.status === 'loading' || busy,
      'data-status': storage.status,
      'data-persisted': storage.persisted === undefined ? undefined : String(storage.persisted),
    } as HTMLAttributes<HTMLElement> & DataAttributes,
    ...managerButtons(storage, labels, { busy, deletable, confirming, setConfirming }),
  };
}

/** One stored model as a row: its name and size, why it cannot go, and its Delete button (which asks to confirm). */
function managerRow(
  model: StoredModel,
  name: string,
  labels: ModelManagerLabels,
  busy: boolean,
  confirm: (model: string) => void,
): ModelManagerRow {
  return {
    model,
    name,
    sizeText: sizeText(model, labels),
    managedText: model.cannotDelete !== undefined ? labels.managed(model.cannotDelete) : model.busy !== undefined ? labels.busy : undefined,
    rowProps: { 'data-complete': String(model.complete), 'data-model': model.model },
    deleteButtonProps: {
      type: 'button',
      disabled: busy || model.cannotDelete !== undefined || model.busy !== undefined,
      'aria-label': `${labels.delete} ${name}`,
      onClick: () => confirm(model.model),
      children: labels.delete,
    },
  };
}

/** The manager's own buttons: keep them, delete all, and the confirmation's two. */
function managerButtons(
  storage: UseModelStorageResult,
  labels: ModelManagerLabels,
  state: { busy: boolean; deletable: number; confirming: string | undefined; setConfirming: (model: string | undefined) => void },
) {
  const { busy, deletable, confirming, setConfirming } = state;
  return {
    persistButtonProps: {
      type: 'button',
      onClick: () => void storage.persist(),
      children: labels.persist,
    } as ButtonHTMLAttributes<HTMLButtonElement>,
    deleteAllButtonProps: {
      type: 'button',
      disabled: busy || deletable === 0,
      onClick: () => setConfirming('*'),
      children: labels.deleteAll,
    } as ButtonHTMLAttributes<HTMLButtonElement>,
    confirmButtonProps: {
      type: 'button',
      onClick: () => {
        const model = confirming;
        setConfirming(undefined);
        if (model !== undefined) void storage.remove(model);
      },
      children: labels.delete,
    } as ButtonHTMLAttributes<HTMLButtonElement>,
    cancelButtonProps: {
      type: 'button',
      onClick: () => setConfirming(undefined),
      children: labels.cancel,
    } as ButtonHTMLAttributes<HTMLButtonElement>,
  };
}

/** Chrome 138+ answers `estimate()` with a quota 10 GiB above the usage, whatever the disk holds. */
const MADE_UP_FREE = 10 * 2 ** 30;

function roomText(room: StorageRoom | undefined, labels: ModelManagerLabels): string | undefined {
  if (!room) return undefined;
  const used = formatBytes(room.usage);
  return room.quota - room.usage === MADE_UP_FREE ? labels.used(used) : labels.room(used, formatBytes(room.free));
}

function errorText(error: Error, nameOf: (model: string) => string, labels: ModelManagerLabels): string {
  return error instanceof ModelInUseError ? labels.inUse(nameOf(error.model)) : error.message;
}

function sizeText(model: StoredModel, labels: ModelManagerLabels): string {
  if (model.busy === 'downloading') {
    // Nothing written yet reads 0 B: no figure beats a wrong one.
    const bytes = model.bytes ? formatBytes(model.bytes) : undefined;
    return labels.downloading(bytes, bytes && model.totalBytes ? formatBytes(model.totalBytes) : undefined);
  }
  if (model.busy === 'loading' && model.bytes !== undefined) return `${formatBytes(model.bytes)}, ${labels.loadingModel}`;
  if (model.bytes === undefined) return model.complete ? labels.sizeUnknown : labels.downloadingUnknown;
  if (model.complete) return formatBytes(model.bytes);
  return labels.partial(formatBytes(model.bytes), model.totalBytes === undefined ? '?' : formatBytes(model.totalBytes));
}

function defaultModelName(model: string): string {
  const path = model.split(/[?#]/)[0] ?? model;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1) || model);
}
