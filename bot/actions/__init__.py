"""Platform-neutral front end: who is speaking where, what to send where, and the command handlers.

Discord and the console both turn what a user did into a ``Ctx`` and a command name with options, call
``dispatch``, and deliver the ``Outgoing`` messages it returns. Nothing here imports discord."""
