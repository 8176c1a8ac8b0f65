/* TLS for stratum+ssl:// pools (OpenSSL), over a non-blocking socket: every call returns at once,
 * saying which way the socket must become ready (POLLIN or POLLOUT) before it is called again.
 * The certificate is checked against the system's CAs (or --cafile's) and the pool's host name
 * (or IP address); the settings are one object for the run, each connection a session on it.
 * Built without OpenSSL (no KILN_HAVE_TLS), pool_tls_new fails saying so. */
#ifndef KILN_POOL_TLS_H
#define KILN_POOL_TLS_H

#include <stddef.h>

typedef struct pool_tls pool_tls; /* an SSL_CTX */
typedef struct tls_session tls_session; /* an SSL */

/* cafile NULL: the system's CAs. verify 0: any certificate (--no-verify). NULL with err set when
 * OpenSSL cannot be set up or cafile cannot be loaded. */
pool_tls *pool_tls_new(const char *cafile, int verify, char *err, size_t errlen);
void pool_tls_free(pool_tls *t);

/* A client session on the connected socket fd for host (SNI and the name checked, or an IP
 * address checked without SNI). NULL with err set. */
tls_session *tls_session_new(pool_tls *t, int fd, const char *host, char *err, size_t errlen);
/* Sends close_notify if the socket takes it now, and frees the session (the fd stays open). */
void tls_session_free(tls_session *s);

/* Drives the handshake: 1 done, 0 call again once *events (POLLIN/POLLOUT) is ready, -1 failed
 * with err saying which step: "TLS handshake failed: ..." or "TLS certificate verification
 * failed: ..." with OpenSSL's reason. */
int tls_handshake(tls_session *s, short *events, char *err, size_t errlen);
int tls_handshake_done(const tls_session *s);

/* Like recv/send on a non-blocking socket: >0 bytes, 0 end of stream (read only), -1 error
 * (err says why), -2 not now: *events is what to wait for. */
long tls_read(tls_session *s, void *buf, size_t n, short *events, char *err, size_t errlen);
long tls_write(tls_session *s, const void *buf, size_t n, short *events, char *err, size_t errlen);
/* Decrypted bytes held inside the session, which poll cannot see. */
size_t tls_pending(const tls_session *s);

#endif
