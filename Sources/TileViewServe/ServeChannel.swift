import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization
import TileView

/// The server's HTTP/1.1 connections: Hummingbird's HTTP/1 channel with the connection rules of docs/design.md section
/// 18 in front of it (`ConnectionRules`) and every connection counted against `--max-connections`
/// (`ConnectionRegistry`).
///
/// - A request that does not keep its connection alive (HTTP/1.0 without `Connection: keep-alive`, or any with
///   `Connection: close`) gets `Connection: close` and the connection is closed once its answer has been written.
/// - A connection is closed only once every byte written to it has gone to the socket: Hummingbird closes a
///   connection right after writing the last part of an answer when it is shutting down (SIGTERM), which used to cut
///   answers larger than the socket's buffer (about 3.9 MB). A close waits at most `drainSeconds` for a reader.
public struct ServeChannel: ServerChildChannel, HTTPChannelHandler {
    public typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    public let responder: HTTPChannelHandler.Responder
    let registry: ConnectionRegistry
    let idleTimeout: Duration
    let drainSeconds: Int64
    let decoderLimits: NIOHTTPDecoderLimitConfiguration

    init(
        responder: @escaping HTTPChannelHandler.Responder, registry: ConnectionRegistry, idleTimeout: Duration,
        drainSeconds: Int64, maxHeaderFieldBytes: Int, maxHeaderBytes: Int
    ) {
        self.responder = responder
        self.registry = registry
        self.idleTimeout = idleTimeout
        self.drainSeconds = drainSeconds
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = maxHeaderFieldBytes
        limits.maxHeaderListSize = maxHeaderBytes
        limits.maxHeaderFieldCount = 100
        decoderLimits = limits
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard let slot = registry.admit(channel) else {
            // Every connection is answering a request: this one is closed at once (never an error of accept).
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        }
        let registry = self.registry
        channel.closeFuture.whenComplete { _ in registry.remove(slot.id) }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionRules(registry: registry, slot: slot, drainSeconds: drainSeconds))
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandler(
                HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// The open connections, at most `limit` (`--max-connections`, kept below the descriptor limit so that accepting
/// never runs out of descriptors). When a new one comes and all are taken, the oldest that is not answering a
/// request (still sending its request, like a slow or half-sent one, or idle between requests) is closed to make
/// room; when every one is answering, the new one is closed. So a health check gets in under any number of
/// half-sent requests. Thread-safe.
public final class ConnectionRegistry: Sendable {
    enum Phase: UInt8 {
        case reading
        case answering
        case idle
    }

    /// A connection's place in the registry. Its phase is set by the connection's own handler at each request
    /// without the registry's lock (an atomic: the registry reads it only to choose a connection to close).
    final class Slot: Sendable {
        let id: Int
        private let state = Atomic<UInt8>(Phase.reading.rawValue)

        init(id: Int) { self.id = id }

        var phase: Phase {
            get { Phase(rawValue: state.load(ordering: .relaxed)) ?? .reading }
            set { state.store(newValue.rawValue, ordering: .relaxed) }
        }
    }

    private struct Entry {
        let channel: any Channel
        let slot: Slot
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var next = 0
        var shed = 0
        var refused = 0
    }

    public let limit: Int
    private let state = Locked(State())

    /// How often its lock was taken, and how often a thread waited for it (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { state.contention }

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Registers a new connection; nil when it must be closed.
    func admit(_ channel: any Channel) -> Slot? {
        let (slot, evicted): (Slot?, (any Channel)?) = state.withLock { s in
            var evicted: (any Channel)? = nil
            if s.entries.count >= limit {
                // The oldest (smallest id) not answering a request.
                guard let victim = s.entries.filter({ $0.value.slot.phase != .answering }).min(by: { $0.key < $1.key })
                else {
                    s.refused += 1
                    return (nil, nil)
                }
                s.entries[victim.key] = nil
                s.shed += 1
                evicted = victim.value.channel
            }
            s.next += 1
            let slot = Slot(id: s.next)
            s.entries[s.next] = Entry(channel: channel, slot: slot)
            return (slot, evicted)
        }
        evicted?.close(promise: nil)
        return slot
    }

    func remove(_ id: Int) { state.withLock { $0.entries[id] = nil } }

    private let deadline = Locked<(started: Bool, action: (@Sendable () -> Void)?)>((false, nil))

    /// What to do when the drain's time is up (`tileview-serve` exits 0): a render still running holds its request,
    /// and with it the server's run, however its connection is closed.
    public func onDrainDeadline(_ action: @escaping @Sendable () -> Void) {
        deadline.withLock { $0.action = action }
    }

    /// Starts the drain's clock, once: the first connection told to quiesce (SIGTERM, SIGINT) starts it.
    func startDrainDeadline(seconds: Int64) {
        let action: (@Sendable () -> Void)? = deadline.withLock { state in
            defer { state.started = true }
            return state.started ? nil : state.action
        }
        guard let action else { return }
        Task.detached {
            try? await Task.sleep(for: .seconds(seconds))
            action()
        }
    }

    /// Connections open now, connections closed to make room, and connections refused.
    public var figures: (open: Int, shed: Int, refused: Int) {
        state.withLock { ($0.entries.count, $0.shed, $0.refused) }
    }
}

/// `Connection: close` for requests that do not keep the connection alive, and closes that wait for the bytes
/// written (see `ServeChannel`). Between NIO's HTTP/1 codec and Hummingbird's, on the connection's event loop.
final class ConnectionRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let registry: ConnectionRegistry
    let slot: ConnectionRegistry.Slot
    let drainSeconds: Int64
    /// Whether each request read and not yet answered keeps the connection alive, in order.
    private var keepAlive: [Bool] = []
    /// Writes handed to the socket's side of the pipeline whose bytes have not all gone yet.
    private var pending = 0
    /// A close asked for (by Hummingbird or by this handler) that waits for `pending` to reach 0.
    private var waitingClose: EventLoopPromise<Void>?
    private var closing = false

    init(registry: ConnectionRegistry, slot: ConnectionRegistry.Slot, drainSeconds: Int64) {
        self.registry = registry
        self.slot = slot
        self.drainSeconds = drainSeconds
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            keepAlive.append(head.isKeepAlive)
            slot.phase = .answering
        }
        context.fireChannelRead(data)
    }

    /// On shutdown (SIGTERM, SIGINT: Hummingbird quiesces every connection), the connection gets `drainSeconds` to
    /// finish its answers; then it is closed whatever is left (a render still running, a reader that stopped
    /// reading), so that the server exits in time.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            registry.startDrainDeadline(seconds: drainSeconds)
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(drainSeconds)) {
                context.close(mode: .all, promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var part = unwrapOutboundIn(data)
        var ends = false
        switch part {
        case .head(var head):
            if keepAlive.first == false {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                part = .head(head)
            }
        case .end: ends = true
        case .body: break
        }
        pending += 1
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.pending -= 1
            self.closeIfWritten(context)
        }
        context.write(wrapOutboundOut(part), promise: written)
        guard ends else { return }
        let alive = keepAlive.isEmpty ? true : keepAlive.removeFirst()
        slot.phase = keepAlive.isEmpty ? .idle : .answering
        if !alive {
            context.flush()
            close(context: context, mode: .all, promise: nil)
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, pending > 0, !closing else {
            context.close(mode: mode, promise: promise)
            return
        }
        if let waiting = waitingClose {
            if let promise { waiting.futureResult.cascade(to: promise) }
            return
        }
        let waiting = context.eventLoop.makePromise(of: Void.self)
        if let promise { waiting.futureResult.cascade(to: promise) }
        waitingClose = waiting
        context.flush()
        // A reader that takes longer than the drain allows is cut.
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(drainSeconds)) {
            self.finishClose(context)
        }
    }

    private func closeIfWritten(_ context: ChannelHandlerContext) {
        if pending == 0, waitingClose != nil { finishClose(context) }
    }

    private func finishClose(_ context: ChannelHandlerContext) {
        guard let waiting = waitingClose, !closing else { return }
        closing = true
        waitingClose = nil
        context.close(mode: .all, promise: waiting)
    }
}
