@_exported public import ResolveKitTerminalCore
