#include "services/engine/pricing/PriceCatalogue.h"

#include "services/api/JsonReader.h"

#include <QFile>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonReader;

api::Result<PriceCatalogue> PriceCatalogue::fromJson(const QByteArray &json)
{
    const JsonReader root = JsonReader::fromBody(json);
    if (!root.ok())
        return *root.error();
    PriceCatalogue catalogue;
    catalogue.m_source = root.field("source"_L1).optString().value_or(QString());
    catalogue.m_generated = root.field("generated"_L1).optString().value_or(QString());
    const auto price = [](const JsonReader &reader) {
        const api::Decimal value = reader.decimal();
        if (reader.ok() && value.isNegative())
            reader.fail(u"a price must not be negative"_s);
        return value;
    };
    const auto optionalPrice = [&](const JsonReader &reader) -> std::optional<api::Decimal> {
        return reader.isMissing() ? std::nullopt : std::optional(price(reader));
    };
    for (const auto &[provider, providerReader] : root.field("providers"_L1).members()) {
        if (provider.isEmpty() || provider.contains(u'/'))
            providerReader.fail(u"a provider key must be non-empty and hold no '/'"_s);
        for (const auto &[model, modelReader] : providerReader.field("models"_L1).members()) {
            const JsonReader cost = modelReader.field("cost"_L1);
            ModelPrice entry;
            entry.name = modelReader.field("name"_L1).optString().value_or(model);
            entry.input = price(cost.field("input"_L1));
            entry.output = price(cost.field("output"_L1));
            entry.cacheRead = optionalPrice(cost.field("cache_read"_L1));
            entry.cacheWrite = optionalPrice(cost.field("cache_write"_L1));
            entry.reasoning = optionalPrice(cost.field("reasoning"_L1));
            entry.inputAudio = optionalPrice(cost.field("input_audio"_L1));
            entry.outputAudio = optionalPrice(cost.field("output_audio"_L1));
            if (!root.ok())
                return *root.error();
            catalogue.m_models.insert(provider + u'/' + model, entry);
        }
    }
    if (!root.ok())
        return *root.error();
    if (catalogue.m_models.isEmpty())
        return api::ApiError::invalidInputs(u"providers"_s,
                                            u"the catalogue holds no priced model"_s);
    return catalogue;
}

api::Result<PriceCatalogue> PriceCatalogue::fromFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return api::ApiError::invalidRequest(
            u"cannot read the catalogue %1: %2"_s.arg(path, file.errorString()));
    return fromJson(file.readAll());
}

const PriceCatalogue &PriceCatalogue::bundled()
{
    static const PriceCatalogue catalogue = [] {
        auto loaded = fromFile(u":/catalogue/models-dev.json"_s);
        if (!loaded)
            qFatal("the bundled price catalogue is damaged: %s",
                   qPrintable(loaded.error().message));
        return loaded.value();
    }();
    return catalogue;
}

const ModelPrice *PriceCatalogue::find(const QString &modelId) const
{
    const qsizetype slash = modelId.indexOf(u'/');
    if (slash <= 0 || slash + 1 == modelId.size())
        return nullptr;
    const auto found = m_models.constFind(modelId);
    return found == m_models.cend() ? nullptr : &found.value();
}

QStringList PriceCatalogue::modelIds() const
{
    QStringList ids = m_models.keys();
    ids.sort();
    return ids;
}

QList<api::ModelInfo> PriceCatalogue::models() const
{
    QStringList ids = modelIds();
    ids.sort();
    QList<api::ModelInfo> list;
    list.reserve(ids.size());
    for (const QString &id : std::as_const(ids)) {
        const ModelPrice &price = *m_models.constFind(id);
        list.append({id, price.name, price.input, price.output, price.cacheRead, price.cacheWrite,
                     price.reasoning, price.inputAudio, price.outputAudio});
    }
    return list;
}

} // namespace md::engine
