@_exported public import ResolveKitCore
@_exported public import ResolveKitTools
