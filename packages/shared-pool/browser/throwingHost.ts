// A SharedWorker whose script throws as it starts (a bad import, a top-level bug): only the tab that
// started it gets an `error` event; a tab that attaches later gets a port that never answers.
throw new Error('this pool host throws while starting');
