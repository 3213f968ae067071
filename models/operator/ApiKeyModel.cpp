#include "models/operator/ApiKeyModel.h"

#include "models/common/AmountFormat.h"

#include <QColor>

namespace md::models {

using namespace Qt::StringLiterals;

std::optional<QString> ApiKeyForm::problem(const QDateTime &now) const
{
    if (name.trimmed().isEmpty())
        return QObject::tr("Enter a name that says what the key is for.");
    if (name.size() > api::ApiKey::MaxName)
        return QObject::tr("The name is longer than %1 characters.").arg(api::ApiKey::MaxName);
    if (scopes.isEmpty())
        return QObject::tr("Choose at least one scope.");
    if (expires && *expires <= now)
        return QObject::tr("The expiry is not in the future.");
    return std::nullopt;
}

ApiKeyModel::ApiKeyModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

void ApiKeyModel::reload()
{
    load(m_backend->listApiKeys(),
         [this](const api::Page<api::ApiKey> &page) { replaceRows([&] { m_rows = page.list; }); });
}

int ApiKeyModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).id == id)
            return row;
    return -1;
}

bool ApiKeyModel::isOver(const api::ApiKey &key, qint64 nowMs)
{
    return key.revokedAt || (key.expiresAt && *key.expiresAt <= nowMs);
}

QString ApiKeyModel::stateText(const api::ApiKey &key, qint64 nowMs)
{
    if (key.revokedAt)
        return tr("Revoked %1").arg(formatShortTimestamp(*key.revokedAt));
    if (key.expiresAt && *key.expiresAt <= nowMs)
        return tr("Expired %1").arg(formatShortTimestamp(*key.expiresAt));
    if (key.previousExpiresAt && *key.previousExpiresAt > nowMs)
        return tr("Active; old secret works until %1")
            .arg(formatShortTimestamp(*key.previousExpiresAt));
    return tr("Active");
}

backend::Reply<api::ApiKey> ApiKeyModel::reloading(backend::Reply<api::ApiKey> reply)
{
    return reply.then(this, [this](const api::Result<api::ApiKey> &result) {
        if (result)
            reload();
        return result;
    });
}

backend::Reply<api::ApiKey> ApiKeyModel::create(const ApiKeyForm &form)
{
    return reloading(m_backend->createApiKey(
        {form.name.trimmed(), form.scopes,
         form.expires ? std::optional(form.expires->toMSecsSinceEpoch()) : std::nullopt}));
}

backend::Reply<api::ApiKey> ApiKeyModel::revoke(const QString &id)
{
    return reloading(m_backend->revokeApiKey({id}));
}

backend::Reply<api::ApiKey> ApiKeyModel::roll(const QString &id, qint64 overlapMs)
{
    return reloading(m_backend->rollApiKey({id, overlapMs}));
}

int ApiKeyModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ApiKeyModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const api::ApiKey &key = m_rows.at(index.row());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (role == Qt::ForegroundRole && isOver(key, now))
        return QColor(128, 128, 128); // read on light and dark palettes alike
    if (role == Qt::ToolTipRole && index.column() == KeyColumn)
        return tr("Only the first characters are kept in view; the secret was shown once.");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return key.name;
    case KeyColumn:
        return key.prefix;
    case ScopesColumn:
        return key.scopes.contains(u"*"_s) ? tr("All scopes") : key.scopes.join(u", "_s);
    case LastUsedColumn:
        return key.lastUsedAt ? formatShortTimestamp(*key.lastUsedAt) : tr("Never");
    case ExpiresColumn:
        return key.expiresAt ? formatShortTimestamp(*key.expiresAt) : tr("Never");
    case StateColumn:
        return stateText(key, now);
    default:
        return {};
    }
}

QVariant ApiKeyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KeyColumn:
        return tr("Key");
    case ScopesColumn:
        return tr("Scopes");
    case LastUsedColumn:
        return tr("Last used");
    case ExpiresColumn:
        return tr("Expires");
    case StateColumn:
        return tr("State");
    default:
        return {};
    }
}

} // namespace md::models
