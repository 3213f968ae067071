#include "models/usage/UsageImportSession.h"

#include "models/connection/WorkspaceStatus.h"
#include "models/usage/UsageBackfill.h"

namespace md::models {

UsageImportSession::UsageImportSession(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backfill(new UsageBackfill(backend, this))
{
    WorkspaceStatus(backend).connection().then(
        this, [this](const api::Result<backend::ConnectionInfo> &info) {
            m_target = WorkspaceStatus::journalTarget(info);
            Q_EMIT targetKnown();
        });
}

void UsageImportSession::setContent(UsageFileContent content, const QString &path,
                                    const QByteArray &hash)
{
    m_content = std::move(content);
    m_path = path;
    m_hash = hash;
}

} // namespace md::models
