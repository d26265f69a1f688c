"""The window: views, models and dialogs, in rooms per view; it calls the service only."""

import os

# superqt reaches Qt through qtpy, which takes PyQt5 first when a person happens to have it
# installed; memdesk's widgets are PySide6's, and the two cannot be mixed.
os.environ["QT_API"] = "pyside6"
