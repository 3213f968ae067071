// Model prices in the models.dev format: provider key → model key → US
// dollars per million tokens for each pool. The bundled snapshot comes from
// the npm registry (scripts/update-catalogue.sh); a newer file can be loaded
// and is validated first.
#pragma once

#include "services/api/CatalogueInfo.h"
#include "services/api/Decimal.h"
#include "services/api/Result.h"

#include <QHash>
#include <QString>

#include <optional>

namespace md::engine {

struct ModelPrice
{
    QString name;
    api::Decimal input;
    api::Decimal output;
    std::optional<api::Decimal> cacheRead;
    std::optional<api::Decimal> cacheWrite;
    std::optional<api::Decimal> reasoning;
    std::optional<api::Decimal> inputAudio;
    std::optional<api::Decimal> outputAudio;
};

class PriceCatalogue final
{
public:
    // A catalogue file; an error names the JSON path of the first problem.
    static api::Result<PriceCatalogue> fromJson(const QByteArray &json);
    static api::Result<PriceCatalogue> fromFile(const QString &path);
    // The snapshot built into the program.
    static const PriceCatalogue &bundled();

    // `model_id` is `<provider>/<model>`, split at the first '/', so nested
    // ids keep the rest whole (`openrouter/deepseek/deepseek-r1`).
    const ModelPrice *find(const QString &modelId) const;
    qsizetype size() const { return m_models.size(); }
    const QString &source() const { return m_source; }
    const QString &generated() const { return m_generated; }
    api::CatalogueInfo info() const { return {m_source, m_generated, m_models.size()}; }
    QStringList modelIds() const;
    // Every model with its prices, sorted by id.
    QList<api::ModelInfo> models() const;

private:
    QHash<QString, ModelPrice> m_models; // key: provider + '/' + model
    QString m_source;
    QString m_generated;
};

} // namespace md::engine
