// OpenSSL libcrypto 3.0 (libssl-dev): X.509 chains, ECDSA P-256, SHA-1 and SHA-256 for asn-migrate.
// The EC_KEY / ECDSA_do_* calls used for speed and deterministic test signing are deprecated in 3.0 but supported.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/sha.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/asn1.h>
