#include "tls.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#ifdef KILN_HAVE_TLS

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct pool_tls {
    SSL_CTX *ctx;
    int verify;
};

/* OpenSSL's reason for the last failure, or the system's, or what: the first one that exists. */
static void reason(char *out, size_t n, const char *what)
{
    unsigned long e = ERR_peek_last_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;
    if (r) snprintf(out, n, "%s", r);
    else if (errno) snprintf(out, n, "%s", strerror(errno));
    else snprintf(out, n, "%s", what);
    ERR_clear_error();
}

pool_tls *pool_tls_new(const char *cafile, int verify, char *err, size_t errlen)
{
    static pool_tls t;
    char why[200];
    FILE *f = cafile ? fopen(cafile, "r") : NULL; /* OpenSSL would only say "system lib" */
    if (cafile && !f) {
        snprintf(err, errlen, "--cafile %.200s: %s", cafile, strerror(errno));
        return NULL;
    }
    if (f) fclose(f);
    ERR_clear_error();
    errno = 0;
    t.ctx = SSL_CTX_new(TLS_client_method());
    t.verify = verify;
    if (!t.ctx) {
        reason(why, sizeof why, "unknown error");
        snprintf(err, errlen, "cannot set up TLS: %s", why);
        return NULL;
    }
    SSL_CTX_set_min_proto_version(t.ctx, TLS1_2_VERSION);
    /* kiln's send buffer moves between partial writes (net.c's memmove) */
    SSL_CTX_set_mode(t.ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    /* pools close without close_notify; a line cut short is dropped as over plain TCP */
    SSL_CTX_set_options(t.ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
    int ok = cafile ? SSL_CTX_load_verify_locations(t.ctx, cafile, NULL) : SSL_CTX_set_default_verify_paths(t.ctx);
    if (!ok && verify) {
        reason(why, sizeof why, "no certificate in it");
        if (cafile) snprintf(err, errlen, "--cafile %.200s: cannot load CA certificates: %s", cafile, why);
        else snprintf(err, errlen, "cannot load the system's CA certificates: %s", why);
        SSL_CTX_free(t.ctx);
        t.ctx = NULL;
        return NULL;
    }
    SSL_CTX_set_verify(t.ctx, verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
    return &t;
}

void pool_tls_free(pool_tls *t)
{
    if (!t) return;
    SSL_CTX_free(t->ctx);
    t->ctx = NULL;
}

static int is_ip(const char *host)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1;
}

tls_session *tls_session_new(pool_tls *t, int fd, const char *host, char *err, size_t errlen)
{
    char why[200];
    ERR_clear_error();
    errno = 0;
    SSL *ssl = SSL_new(t->ctx);
    if (!ssl || !SSL_set_fd(ssl, fd)) {
        reason(why, sizeof why, "out of memory");
        snprintf(err, errlen, "TLS setup failed: %s", why);
        SSL_free(ssl);
        return NULL;
    }
    X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
    int ok;
    if (is_ip(host)) { /* RFC 6066: no SNI for an address; the certificate must name the address */
        ok = X509_VERIFY_PARAM_set1_ip_asc(param, host);
    } else {
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        ok = SSL_set_tlsext_host_name(ssl, host) && X509_VERIFY_PARAM_set1_host(param, host, 0);
    }
    if (!ok) {
        reason(why, sizeof why, "bad host name");
        snprintf(err, errlen, "TLS setup failed for %.100s: %s", host, why);
        SSL_free(ssl);
        return NULL;
    }
    SSL_set_connect_state(ssl);
    return (tls_session *)ssl;
}

void tls_session_free(tls_session *s)
{
    if (!s) return;
    SSL *ssl = (SSL *)s;
    ERR_clear_error();
    if (SSL_is_init_finished(ssl)) SSL_shutdown(ssl); /* one non-blocking try: close_notify, no wait */
    ERR_clear_error();
    SSL_free(ssl);
}

/* What an SSL call's failure means: -2 with *events to wait for, 0 a clean end, -1 an error. */
static int classify(SSL *ssl, int rc, short *events, char *why, size_t n)
{
    int e = SSL_get_error(ssl, rc);
    switch (e) {
    case SSL_ERROR_WANT_READ: *events = POLLIN; return -2;
    case SSL_ERROR_WANT_WRITE: *events = POLLOUT; return -2;
    case SSL_ERROR_ZERO_RETURN: return 0;
    case SSL_ERROR_SYSCALL:
        if (ERR_peek_last_error() == 0 && errno == 0) return 0; /* EOF without close_notify */
        reason(why, n, "connection error");
        return -1;
    default: reason(why, n, "protocol error"); return -1;
    }
}

int tls_handshake(tls_session *s, short *events, char *err, size_t errlen)
{
    SSL *ssl = (SSL *)s;
    char why[200];
    ERR_clear_error();
    errno = 0;
    int rc = SSL_connect(ssl);
    if (rc == 1) return 1;
    int r = classify(ssl, rc, events, why, sizeof why);
    if (r == -2) return 0;
    long v = SSL_get_verify_result(ssl);
    if ((SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER) && v != X509_V_OK) {
        snprintf(err, errlen, "TLS certificate verification failed: %s%s", X509_verify_cert_error_string(v),
                 v == X509_V_ERR_HOSTNAME_MISMATCH || v == X509_V_ERR_IP_ADDRESS_MISMATCH
                     ? ""
                     : " (--cafile FILE trusts another CA; --no-verify accepts any certificate)");
        return -1;
    }
    if (r == 0) snprintf(why, sizeof why, "connection closed by the pool");
    /* what OpenSSL says when the answer is not TLS at all */
    int plain = strstr(why, "wrong version number") || strstr(why, "packet length too long") ||
                strstr(why, "record layer failure");
    snprintf(err, errlen, "TLS handshake failed: %s%s", why, plain ? " (a plain stratum+tcp pool?)" : "");
    return -1;
}

/* One SSL_read_ex into rd, or SSL_write_ex of wr when rd is NULL: the bytes moved, -2 with
 * *events to wait for, 0 the pool's clean end (a read), -1 an error described in err. A write
 * that finds the connection closed is an error: the line it carried is lost. */
static long transfer(SSL *ssl, void *rd, const void *wr, size_t n, short *events, char *err, size_t errlen)
{
    size_t moved = 0;
    ERR_clear_error();
    errno = 0;
    int rc = rd ? SSL_read_ex(ssl, rd, n, &moved) : SSL_write_ex(ssl, wr, n, &moved);
    if (rc == 1) return (long)moved;
    char why[200];
    int r = classify(ssl, rc, events, why, sizeof why);
    if (r == 0 && !rd) {
        snprintf(why, sizeof why, "connection closed by the pool");
        r = -1;
    }
    if (r == -1) snprintf(err, errlen, "TLS: %s", why);
    return r;
}

long tls_read(tls_session *s, void *buf, size_t n, short *events, char *err, size_t errlen)
{
    return transfer((SSL *)s, buf, NULL, n, events, err, errlen);
}

long tls_write(tls_session *s, const void *buf, size_t n, short *events, char *err, size_t errlen)
{
    return transfer((SSL *)s, NULL, buf, n, events, err, errlen);
}

size_t tls_pending(const tls_session *s) { return (size_t)SSL_pending((const SSL *)s); }

int tls_handshake_done(const tls_session *s) { return SSL_is_init_finished((const SSL *)s); }

#else /* built without OpenSSL */

pool_tls *pool_tls_new(const char *cafile, int verify, char *err, size_t errlen)
{
    (void)cafile;
    (void)verify;
    snprintf(err, errlen, "TLS pools need OpenSSL: this kiln was built without libssl-dev");
    return NULL;
}
void pool_tls_free(pool_tls *t) { (void)t; }
tls_session *tls_session_new(pool_tls *t, int fd, const char *host, char *err, size_t errlen)
{
    (void)t;
    (void)fd;
    (void)host;
    snprintf(err, errlen, "built without TLS");
    return NULL;
}
void tls_session_free(tls_session *s) { (void)s; }
int tls_handshake(tls_session *s, short *events, char *err, size_t errlen)
{
    (void)s;
    (void)events;
    snprintf(err, errlen, "built without TLS");
    return -1;
}
long tls_read(tls_session *s, void *buf, size_t n, short *events, char *err, size_t errlen)
{
    (void)s, (void)buf, (void)n, (void)events;
    snprintf(err, errlen, "built without TLS");
    return -1;
}
long tls_write(tls_session *s, const void *buf, size_t n, short *events, char *err, size_t errlen)
{
    (void)s, (void)buf, (void)n, (void)events;
    snprintf(err, errlen, "built without TLS");
    return -1;
}
size_t tls_pending(const tls_session *s)
{
    (void)s;
    return 0;
}
int tls_handshake_done(const tls_session *s)
{
    (void)s;
    return 0;
}

#endif
