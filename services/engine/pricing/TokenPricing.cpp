#include "services/engine/pricing/TokenPricing.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

api::Result<PricedCall> TokenPricing::price(const PriceCatalogue &catalogue, const QString &modelId,
                                            const TokenCounts &tokens, const CreditMarkups &markups)
{
    const ModelPrice *model = catalogue.find(modelId);
    if (!model)
        return ApiError::invalidRequest(
            u"model_id \"%1\" is not in the price catalogue; use <provider>/<model> as models.dev names them"_s
                .arg(modelId));
    PricedCall call;
    const std::pair<QString, std::pair<qint64, Decimal>> pools[] = {
        {u"input"_s, {tokens.input, model->input}},
        {u"output"_s, {tokens.output, model->output}},
        {u"cache_read"_s, {tokens.cacheRead, model->cacheRead.value_or(model->input)}},
        {u"cache_write"_s, {tokens.cacheWrite, model->cacheWrite.value_or(model->input)}},
        {u"reasoning"_s, {tokens.reasoning, model->reasoning.value_or(model->output)}},
        {u"audio_input"_s, {tokens.inputAudio, model->inputAudio.value_or(model->input)}},
        {u"audio_output"_s, {tokens.outputAudio, model->outputAudio.value_or(model->output)}},
    };
    // Σ(price × tokens) stays exact; one division by a million rounds to the nano-dollar.
    Decimal sum;
    for (const auto &[name, pool] : pools) {
        const auto &[count, perMillion] = pool;
        if (count == 0)
            continue;
        const auto product = perMillion.mulDiv(count, 1);
        const auto total = product ? sum.plus(*product) : std::nullopt;
        const auto cost = product ? product->mulDiv(1, 1'000'000) : std::nullopt;
        if (!total || !cost)
            return ApiError::invalidRequest(u"the token counts are too large to price"_s);
        sum = *total;
        call.pools.append({name, count, perMillion, *cost});
    }
    const auto base = sum.mulDiv(1, 1'000'000);
    if (!base)
        return ApiError::invalidRequest(u"the token counts are too large to price"_s);
    call.baseCost = *base;

    const qsizetype slash = modelId.indexOf(u'/');
    if (const auto found = markups.byModel.constFind(modelId); found != markups.byModel.cend()) {
        call.markup = *found;
        call.markupSource = PricedCall::MarkupSource::Model;
    } else if (const auto provider = markups.byProvider.constFind(modelId.left(slash));
               provider != markups.byProvider.cend()) {
        call.markup = *provider;
        call.markupSource = PricedCall::MarkupSource::Provider;
    } else if (markups.defaultMarkup) {
        call.markup = *markups.defaultMarkup;
        call.markupSource = PricedCall::MarkupSource::Default;
    }
    call.free = call.markup == Decimal::fromInteger(-100);
    // value = base × (100 + markup) / 100, with the markup's own nano-units.
    const auto factor = Decimal::fromInteger(100).plus(call.markup);
    const auto value =
        factor ? call.baseCost.mulDiv(factor->raw(), 100 * Decimal::One) : std::nullopt;
    if (!value)
        return ApiError::invalidRequest(u"the token counts are too large to price"_s);
    call.value = *value;
    return call;
}

} // namespace md::engine
