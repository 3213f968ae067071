// The organization's Stripe secret key for the connection's environment,
// as Tenants ▸ Stripe key… edits it (docs/processors.md, "Keys"): what is
// connected (its hint only), connecting a new one (the server checks it
// with Stripe before keeping it) and forgetting it. The key typed is handed
// to the backend and never kept here, in settings or in a log.
#pragma once

#include "services/api/ProcessorKey.h"
#include "services/backend/BillingBackend.h"

#include <QObject>

namespace md::models {

class ProcessorKeyEdit final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessorKeyEdit)

public:
    explicit ProcessorKeyEdit(backend::BillingBackend *backend, QObject *parent = nullptr);

    void load();
    void connectKey(const QString &secret);
    void disconnectKey();
    bool busy() const { return m_busy; }
    // The keys connected (every environment of the organization).
    const QList<api::ProcessorKeyInfo> &keys() const { return m_keys; }
    // What is connected, or what went wrong, in a sentence.
    QString summary() const { return m_summary; }
    bool failed() const { return m_failed; }

Q_SIGNALS:
    void changed();

private:
    void show(const api::Result<api::Page<api::ProcessorKeyInfo>> &keys, const QString &done);

    backend::BillingBackend *m_backend;
    QList<api::ProcessorKeyInfo> m_keys;
    QString m_summary;
    quint64 m_generation = 0;
    bool m_busy = false;
    bool m_failed = false;
};

} // namespace md::models
