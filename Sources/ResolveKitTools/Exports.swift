@_exported public import ResolveKitCore
