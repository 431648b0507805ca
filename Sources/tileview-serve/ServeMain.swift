import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCLI
import TileViewServe

/// `tileview-serve ROOT`: the server of `tileview serve`, which checks the arguments and becomes this executable
/// with the same words. Run alone, it takes the same arguments.
@main
struct ServeMain: AsyncParsableCommand {
    /// Named `tileview serve` in usage and help when `tileview serve` started it (its first word says so).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLine.arguments.first == "tileview serve" ? "tileview serve" : "tileview-serve",
            abstract: ServeOptions.abstract, discussion: ServeOptions.discussion, version: TileViewVersion.string)
    }

    @OptionGroup var options: ServeOptions

    func run() async throws {
        Report.verbose = options.decoding.verbose
        if options.isToolRun { return try accessToolRun() }
        let root = options.root
        let host = options.host
        let port = options.port
        let served: ServeRoot
        do {
            served = try ServeRoot(path: root)
        } catch {
            Report.error(error.description)
            throw ExitCode.failure
        }
        // Tiles of 256 KiB come and go on many threads: each gets its own mapping, returned when freed. A render's
        // own mosaic and frame are kept by its thread for the next render instead (`RenderBlocks`), all threads
        // together at most an eighth of the work budget.
        Allocator.returnLargeBlocksToTheSystem()
        RenderBlocks.keepOnEachThread(upToBytes: (options.workMB << 20) / 8)
        var settings = ServeSettings(
            root: served, host: host, port: port, maxArea: options.maxArea, cacheBytes: options.cacheMB << 20,
            workBytes: options.workMB << 20, options: options.decoding.decodeOptions, maxViews: options.maxViews,
            viewIdleSeconds: options.viewIdle)
        settings.site = SiteRules(
            publicURL: options.publicURL.flatMap(ServeOptions.parsePublicURL).map {
                SiteRules.PublicURL(scheme: $0.scheme, authority: $0.authority, path: $0.path)
            },
            allowedHosts: options.allowedHostNames, trustedProxies: options.trustedProxyNetworks)
        do throws(AccessFileError) {
            settings.access = try AccessSetup.rules(
                usersFile: options.usersFile, tokensFile: options.tokensFile, sessionKeyFile: options.sessionKeyFile,
                signKeyFile: options.signKeyFile, sessionHours: options.sessionHours)
        } catch {
            Report.error(error.description)
            throw ExitCode.validationFailure
        }
        // Connections count against the descriptor limit: raise it to the hard one and keep the cap below it, so
        // that accepting never fails for want of a descriptor.
        let descriptors = DescriptorLimit.raiseToHard() ?? 1024
        settings.maxConnections = max(1, min(options.maxConnections, descriptors - DescriptorLimit.reserved))
        if settings.maxConnections < options.maxConnections {
            Report.standardError(
                "tileview: --max-connections \(options.maxConnections) lowered to \(settings.maxConnections): "
                    + "the descriptor limit is \(descriptors) (ulimit -n)\n")
        }
        settings.drainSeconds = Int64(options.drainSeconds)
        if let folder = options.cacheFolder(environment: ProcessInfo.processInfo.environment) {
            // A cache that cannot be made is said and left out: serving goes on without it.
            do throws(TileViewError) {
                settings.levelStore = try CoarseLevelStore(
                    folder: folder, budgetBytes: options.diskCacheMB << 20, warn: Self.warn)
            } catch {
                Self.warn("no disk cache: \(error.description)")
            }
        }
        settings.indexWorkers = options.indexWorkers
        // View tokens' key: --sign-key, else the one kept in the cache folder (replicas sharing the folder, and this
        // server after a restart, answer each other's views), else one for this process.
        if let keyFile = options.signKeyFile {
            do throws(AccessFileError) {
                settings.viewKey = try AccessFiles.key(at: keyFile, option: "--sign-key")
            } catch {
                Report.error(error.description)
                throw ExitCode.validationFailure
            }
        } else if let folder = options.cacheFolder(environment: ProcessInfo.processInfo.environment) {
            do throws(TileViewError) {
                settings.viewKey = try ViewKey.kept(in: folder)
            } catch {
                Self.warn("views last only as long as this process: no key kept: \(error.description)")
            }
        }
        settings.viewerMaxScale = options.maxScale
        if let cert = options.tlsCert, let key = options.tlsKey {
            do {
                settings.tls = try TLSFiles(certificatePath: cert, keyPath: key)
            } catch {
                Report.error(error.description)
                throw ExitCode.failure
            }
        }
        let server = TileServer(settings: settings, warn: Self.warn)
        // The drain's end: answers still being rendered or written are cut, and the server exits 0 as documented.
        server.connections.onDrainDeadline {
            Report.standardError("tileview: --drain-seconds passed; the answers still in flight are cut\n")
            exitWithoutWaiting()
        }
        let scheme = settings.tls == nil ? "http" : "https"
        let site = settings.site
        let open = options.open
        // The start-up lines once the socket is bound (so a port in use is never announced as served), with the
        // port it got (--port 0 asks for any).
        let drain = options.drainSeconds
        let application = try buildApplication(
            server,
            onListening: { bound in
                Report.standardError(
                    ServeBanner.text(root: served, host: host, port: bound, scheme: scheme, site: site))
                if open {
                    // A server on every address is reached on this machine through the loopback one.
                    let url = ServeBanner.localURL(host: host, port: bound, scheme: scheme).url
                    print("viewer: \(url)")
                    flushStandardOutput()
                    Desktop.open(url)
                }
            },
            onStopping: {
                Report.standardError(
                    "tileview: stopping: no new connections; answers in flight get up to \(drain) s to finish\n")
            })
        do {
            try await application.runService()
        } catch {
            guard let reason = ServeBanner.bindFailure(error, host: host, port: port) else { throw error }
            Report.error(reason)
            throw ExitCode.failure
        }
        Report.standardError("tileview: stopped\n")
    }

    /// A warning line on standard error.
    @Sendable static func warn(_ text: String) { Report.standardError("tileview: warning: \(text)\n") }

    /// `--hash-password NAME` (prints `NAME:HASH` for `--users`) or `--sign PATH` (prints a share link); exit 64
    /// when the input or the key will not do.
    func accessToolRun() throws {
        do throws(AccessFileError) {
            if let name = options.hashPassword {
                let password = readLine(strippingNewline: true)
                print(try AccessSetup.hashLine(name: name, password: password, cost: options.hashCost))
            } else if let path = options.sign, let keyFile = options.signKeyFile {
                let base = options.publicURL.flatMap(ServeOptions.parsePublicURL).map {
                    "\($0.scheme)://\($0.authority)\($0.path)"
                }
                let link = try AccessSetup.signedLink(
                    path: path, seconds: options.expires, keyFile: keyFile, base: base ?? "")
                print(link)
            }
        } catch {
            Report.error(error.description)
            throw ExitCode.validationFailure
        }
    }
}

/// Exits 0 at once (the drain's end: `ServeMain`'s own `exit` is ArgumentParser's, which waits for nothing either
/// but takes an error).
private func exitWithoutWaiting() -> Never { ProcessControl.exitNow(0) }
