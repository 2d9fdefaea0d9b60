/**
 * The request header naming the protocol version a host negotiated at the
 * handshake (`ocp/1.0-draft` or `contextgraph/1.0-draft`). HTTP has no
 * session, so a server answers each request in the family this header names;
 * a host that talks to one server in both families sends it on every request.
 */
export const PROTOCOL_VERSION_HEADER = "ocp-protocol-version";
