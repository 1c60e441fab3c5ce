package netjail

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// A CA is a certificate authority made for one run of the direct arm, and
// the certificate it signed for the vendor hosts the jail resolves to the
// fake API. Both keys live in memory only: what leaves the process is the
// authority's certificate (PEM), which the client is told to trust.
type CA struct {
	pem  []byte
	pool *x509.CertPool
	leaf tls.Certificate
}

// caValidity is how long the run's certificates are valid, from an hour
// before they were made (a client's clock may lag the runner's a little).
const caValidity = 48 * time.Hour

// NewCA makes a certificate authority and a server certificate for hosts,
// signed by it. ECDSA P-256 keys: made in well under a millisecond, and
// accepted by every TLS stack the clients ship (Node's OpenSSL, Bun's
// BoringSSL, rustls).
func NewCA(hosts []string) (*CA, error) {
	if len(hosts) == 0 {
		return nil, errors.New("certificate authority: no hosts to sign for")
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("certificate authority: %w", err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "instrlab run CA", Organization: []string{"instrlab"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("certificate authority: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("certificate authority: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("server certificate: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: hosts[0]},
		DNSNames:     hosts,
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(caValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("server certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return &CA{
		pem:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pool: pool,
		leaf: tls.Certificate{Certificate: [][]byte{der, caDER}, PrivateKey: key},
	}, nil
}

// serial is a random 128-bit serial number, as RFC 5280 asks (positive,
// at most 20 bytes).
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n.Add(n, big.NewInt(1))
}

// PEM is the authority's certificate, PEM-encoded: the file a client is
// told to trust (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, ...).
func (ca *CA) PEM() []byte { return ca.pem }

// Pool holds the authority's certificate alone, for a Go client.
func (ca *CA) Pool() *x509.CertPool { return ca.pool }

// ServerConfig is the TLS configuration the fake API serves the vendor
// hosts with: the signed certificate and its chain, HTTP/2 or HTTP/1.1.
func (ca *CA) ServerConfig() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{ca.leaf},
		NextProtos:   []string{"h2", "http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}
}
