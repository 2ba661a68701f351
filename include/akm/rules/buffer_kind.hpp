// buffer_kind — the momentum buffers the claims compare, named once for every layer.
#pragma once
#include "akm/base/key.hpp"

namespace akm {

/// Which buffer rule: AK with the raw key [eq:dm-update] or the normalized key
/// [eq:dm-norm-update], the EMA [eq:ema-update], or the pure delta rule (β = 1)
/// [eq:delta-rule]. The values are fixed: experiments index per-buffer arrays by them.
enum class BufferKind : int { ak_raw = 0, ak_normalized = 1, ema = 2, delta = 3 };

/// The one spelling: "ak-raw", "ak-normalized", "ema", "delta" (hyphens, as the CLI's
/// optimizer names "ak-sgd", "sgd-m").
const char* to_string(BufferKind b);

/// The key an AK buffer uses; ak_raw → raw, ak_normalized → normalized. InputError for
/// ema and delta, which have no key choice.
Key key_of(BufferKind b);

}  // namespace akm
