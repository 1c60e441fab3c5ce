// Package netjail runs a client with no network but loopback, and keeps a
// record of every outside name it tried to resolve: the offline proof of a
// run.
//
// The client runs in new network and mount namespaces (Linux, root). Inside
// them, loopback is brought up, /etc/resolv.conf is bind-mounted to a file
// naming 127.0.0.1 as the only nameserver (and the hosts line of
// /etc/nsswitch.conf to "files dns", so no resolver daemon outside answers
// through a socket), and a tiny DNS server on 127.0.0.1:53 answers every
// question NXDOMAIN and appends the name to a log. The fake model API,
// which runs outside, is reached through a forwarder that listens on the
// same loopback address inside and passes connections to a Unix socket of
// the fake: a path in the file system crosses the namespace, TCP does not.
//
// Names resolved from /etc/hosts (localhost) and connections to literal
// addresses are not seen by the resolver; the latter fail at once, as
// nothing but loopback is routed.
package netjail
