"""Dialogs: new memory, identity, export, import, backups."""
