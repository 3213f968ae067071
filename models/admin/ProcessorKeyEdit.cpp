#include "models/admin/ProcessorKeyEdit.h"

#include "models/common/AmountFormat.h"
#include "models/common/FieldWords.h"
#include "models/common/WhenDone.h"

namespace md::models {

ProcessorKeyEdit::ProcessorKeyEdit(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

void ProcessorKeyEdit::load()
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    Q_EMIT changed();
    whenDone(m_backend->listProcessorKeys(), this,
             [this, generation](const api::Result<api::Page<api::ProcessorKeyInfo>> &keys) {
                 if (generation == m_generation)
                     show(keys, QString());
             });
}

void ProcessorKeyEdit::connectKey(const QString &secret)
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_summary = tr("Asking Stripe whether the key works…");
    Q_EMIT changed();
    whenDone(m_backend->connectProcessorKey({secret}), this,
             [this, generation](const api::Result<api::ProcessorKeyInfo> &connected) {
                 if (generation != m_generation)
                     return;
                 if (!connected) {
                     show(connected.error(), QString());
                     return;
                 }
                 // The list again, so that every environment shows.
                 const QString done = tr("Connected %1.").arg(connected.value().hint);
                 whenDone(m_backend->listProcessorKeys(), this,
                          [this, generation,
                           done](const api::Result<api::Page<api::ProcessorKeyInfo>> &keys) {
                              if (generation == m_generation)
                                  show(keys, done);
                          });
             });
}

void ProcessorKeyEdit::disconnectKey()
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    Q_EMIT changed();
    whenDone(m_backend->disconnectProcessorKey(), this,
             [this, generation](const api::Result<api::Page<api::ProcessorKeyInfo>> &keys) {
                 if (generation == m_generation)
                     show(keys, tr("Disconnected."));
             });
}

void ProcessorKeyEdit::show(const api::Result<api::Page<api::ProcessorKeyInfo>> &keys,
                            const QString &done)
{
    m_busy = false;
    m_failed = !keys;
    if (!keys) {
        m_summary = FieldWords::sentence(keys.error());
    } else {
        m_keys = keys.value().list;
        QStringList said;
        for (const api::ProcessorKeyInfo &key : std::as_const(m_keys))
            said.append(tr("%1: %2, connected %3")
                            .arg(key.env == QLatin1StringView("live") ? tr("Live") : tr("Test"),
                                 key.hint, formatDate(key.connectedAt)));
        m_summary =
            (done.isEmpty() ? QString() : done + u' ') +
            (said.isEmpty() ? tr("No Stripe key is connected.") : said.join(QStringLiteral("; ")));
    }
    Q_EMIT changed();
}

} // namespace md::models
