import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic context and the client's address (the login limiter
/// counts failures per address, and the access log may name it). Nil where the request came from no socket (the
/// router tests).
public struct ServeRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
