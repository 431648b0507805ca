import Hummingbird
import NIOCore

/// A request context that carries the share grant a request was let through by (`AccessControl`).
public protocol ShareGrantContext: RequestContext {
    /// The image or folder a share link grants, when the request was let through by one (not by a session or a
    /// bearer token): a route that reaches further than its path (a scene's layers) checks them against it.
    var shareGrant: ShareScope? { get set }
}

/// The request context of every route: Hummingbird's basic context, the client's address (the login limiter
/// counts failures per address, and the access log may name it; nil where the request came from no socket, as in
/// the router tests) and the share grant it came in by.
public struct ServeRequestContext: ShareGrantContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The event loop of the request's connection (a large answer's body waits on it: `TileServer.written`).
    public let eventLoop: any EventLoop
    public var shareGrant: ShareScope? = nil

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        eventLoop = source.channel.eventLoop
    }
}
