/*
 * ECDSA public-key recovery over secp256k1 as a Node-API addon: who signed a transaction or an
 * EIP-3009 authorization. Built by mock-node/native/build.mjs from the libsecp256k1 sources the npm
 * package secp256k1 vendors (MIT), with two choices that package's prebuilt binary does not make:
 *
 * - Modular inverses through GMP (libgmp.so.10, linked dynamically): a recovery makes three
 *   variable-time inverses of public values (r^-1, and two to bring points back to affine
 *   coordinates). libsecp256k1 of that age computes them by exponentiation without GMP; with it,
 *   a recovery takes about 44 us instead of 54 us on this project's machines.
 * - A verification-only context with a 2^12-entry table of multiples of G: made once when the addon
 *   loads, in about 1.5 ms, where the prebuilt one builds signing tables and a 2^15-entry table
 *   (about 11 ms) on the first recovery. Recoveries cost the same with either table.
 *
 * The one export, ecdsaRecover(output65, signature64, recovery, digest32), has the contract of the
 * prebuilt addon's method of that name (mock-node/execution/secp256k1Addon.ts): it writes the
 * uncompressed public key into output65 and answers 0, or answers 1 (the signature does not parse:
 * r or s zero or not below the curve order) or 2 (no key: r is not the x of a curve point).
 * Arguments of the wrong type or length throw a TypeError; nothing here aborts the process.
 */
#include <stdbool.h>
#include <stddef.h>
#include <node_api.h>

#include "include/secp256k1.h"
#include "include/secp256k1_recovery.h"

static secp256k1_context *verify_context = NULL;

/* libsecp256k1 calls these on misuse (a NULL argument, a recovery id outside 0..3) and on internal
 * errors; its defaults print and abort. Every argument is checked before any call, so they only
 * keep a mistake here from taking down the process that hosts the node (the VS Code extension host). */
static void ignore_callback(const char *message, void *data) {
  (void)message;
  (void)data;
}

/* The bytes of a Uint8Array argument of exactly `length` bytes, or NULL with a TypeError thrown. */
static unsigned char *uint8_array_of_length(napi_env env, napi_value value, size_t length, const char *message) {
  bool is_typed_array = false;
  if (napi_is_typedarray(env, value, &is_typed_array) != napi_ok || !is_typed_array) {
    napi_throw_type_error(env, NULL, message);
    return NULL;
  }
  napi_typedarray_type type;
  size_t count = 0;
  void *data = NULL;
  if (napi_get_typedarray_info(env, value, &type, &count, &data, NULL, NULL) != napi_ok || type != napi_uint8_array || count != length || data == NULL) {
    napi_throw_type_error(env, NULL, message);
    return NULL;
  }
  return (unsigned char *)data;
}

static napi_value answer(napi_env env, int code) {
  napi_value result = NULL;
  napi_create_int32(env, code, &result);
  return result;
}

static napi_value ecdsa_recover(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < 4) {
    napi_throw_type_error(env, NULL, "ecdsaRecover(output65, signature64, recovery, digest32)");
    return NULL;
  }
  unsigned char *output = uint8_array_of_length(env, argv[0], 65, "output must be a 65-byte Uint8Array");
  if (output == NULL) return NULL;
  unsigned char *signature = uint8_array_of_length(env, argv[1], 64, "signature must be a 64-byte Uint8Array");
  if (signature == NULL) return NULL;
  int32_t recovery = -1;
  if (napi_get_value_int32(env, argv[2], &recovery) != napi_ok || recovery < 0 || recovery > 3) {
    napi_throw_type_error(env, NULL, "recovery must be 0, 1, 2 or 3");
    return NULL;
  }
  unsigned char *digest = uint8_array_of_length(env, argv[3], 32, "digest must be a 32-byte Uint8Array");
  if (digest == NULL) return NULL;

  secp256k1_ecdsa_recoverable_signature parsed;
  if (!secp256k1_ecdsa_recoverable_signature_parse_compact(verify_context, &parsed, signature, recovery)) return answer(env, 1);
  secp256k1_pubkey key;
  if (!secp256k1_ecdsa_recover(verify_context, &key, &parsed, digest)) return answer(env, 2);
  size_t written = 65;
  secp256k1_ec_pubkey_serialize(verify_context, output, &written, &key, SECP256K1_EC_UNCOMPRESSED);
  return answer(env, 0);
}

/* The one context of the process, made on the first load. Node loads the addon once per thread
 * that requires it (worker threads too): a thread that loses the race to publish its context
 * destroys it and uses the winner's. Recovery only reads the context, from any thread. */
static secp256k1_context *shared_context(void) {
  secp256k1_context *current = __atomic_load_n(&verify_context, __ATOMIC_ACQUIRE);
  if (current != NULL) return current;
  secp256k1_context *made = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY);
  if (made == NULL) return NULL;
  secp256k1_context_set_illegal_callback(made, ignore_callback, NULL);
  secp256k1_context_set_error_callback(made, ignore_callback, NULL);
  secp256k1_context *expected = NULL;
  if (__atomic_compare_exchange_n(&verify_context, &expected, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return made;
  secp256k1_context_destroy(made);
  return expected;
}

NAPI_MODULE_INIT() {
  if (shared_context() == NULL) {
    napi_throw_error(env, NULL, "could not create a secp256k1 context");
    return NULL;
  }
  napi_value function = NULL;
  if (napi_create_function(env, "ecdsaRecover", NAPI_AUTO_LENGTH, ecdsa_recover, NULL, &function) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "ecdsaRecover", function) != napi_ok) return NULL;
  return exports;
}
