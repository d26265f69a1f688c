"""Sync in the window: the schedule's thread tied to the window (each sync one undoable step,
its outcome in the status bar) and File ▸ Sync… to set remotes up and sync now."""
