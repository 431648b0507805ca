import NIOSSL
import TileView

/// `--tls-cert` and `--tls-key`: the PEM files of the certificate chain and its private key. TLS 1.2 and 1.3 only
/// (swift-nio-ssl, BoringSSL's defaults for ciphers).
public struct TLSFiles: Sendable, Hashable {
    public let certificatePath: String
    public let keyPath: String

    /// The two files, checked: both are read as `configuration()` reads them, so a server is never started with
    /// files it cannot load. The error names the file and the reason.
    public init(certificatePath: String, keyPath: String) throws(TileViewError) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        _ = try configuration()
    }

    /// The server's TLS configuration, read from the files; the error names the file and the reason.
    public func configuration() throws(TileViewError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TileViewError(.read, path: certificatePath, reason: "is not a PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else {
            throw TileViewError(.read, path: certificatePath, reason: "holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TileViewError(.read, path: keyPath, reason: "is not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
