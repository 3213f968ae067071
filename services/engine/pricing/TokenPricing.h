// What a call costs (docs/api.md, balances.track_tokens): each token pool at
// the model's price for it, falling back to the input price (cache read,
// cache write, audio input) or the output price (reasoning, audio output);
// value = Σ(price × tokens) / 1,000,000 × (1 + markup / 100), in exact
// decimals rounded to the nano-dollar. Markup: per model, else per provider,
// else the credit system's default, else none; -100 is free.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Result.h"
#include "services/engine/pricing/PriceCatalogue.h"

#include <QHash>
#include <QList>

namespace md::engine {

struct TokenCounts
{
    qint64 input = 0;
    qint64 output = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    qint64 reasoning = 0;
    qint64 inputAudio = 0;
    qint64 outputAudio = 0;
};

// The markups of one AI credit system.
struct CreditMarkups
{
    std::optional<api::Decimal> defaultMarkup;
    QHash<QString, api::Decimal> byProvider; // provider key
    QHash<QString, api::Decimal> byModel;    // full model id, provider/model
};

struct PricedCall
{
    enum class MarkupSource { Model, Provider, Default, None };
    struct Pool
    {
        QString name;
        qint64 tokens = 0;
        api::Decimal pricePerMillion;
        api::Decimal cost;
    };
    QList<Pool> pools; // pools with tokens only
    api::Decimal baseCost;
    api::Decimal markup; // percent
    MarkupSource markupSource = MarkupSource::None;
    api::Decimal value;
    bool free = false; // markup -100: recorded, nothing deducted
};

class TokenPricing final
{
public:
    // 400 invalid_request naming the model when the catalogue does not know it.
    static api::Result<PricedCall> price(const PriceCatalogue &catalogue, const QString &modelId,
                                         const TokenCounts &tokens, const CreditMarkups &markups);
};

} // namespace md::engine
