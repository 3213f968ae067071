// The audit log (audit_log.list) as a table, newest first, paged on demand and
// narrowed by resource, actor and time; the selected entry's before and after
// as indented JSON with the fields that changed, for the side-by-side view;
// and CSV for export.
#pragma once

#include "models/common/ExportRow.h"
#include "models/common/PagedTableModel.h"
#include "services/api/AuditLog.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

class AuditLogModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditLogModel)

public:
    enum Column {
        TimeColumn,
        ActorColumn,
        ActionColumn,
        ResourceColumn,
        ChangedColumn,
        ColumnCount
    };

    explicit AuditLogModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Only resource type and id, actor and since are used.
    void setFilter(const api::AuditLogRequest &filter);
    const api::AuditLogRequest &filter() const { return m_filter; }
    void refresh() { restart(); }
    // Asks for the filter's newest entry and starts over only when it is not
    // the first row: writes made since the last read (the console's own or
    // another client's) appear, and nothing moves when there were none.
    void refreshIfStale();
    const api::AuditEntry &entry(int row) const { return m_rows.at(row); }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The fields whose value differs between before and after (every field
    // of a side that is null on the other): the top level's, or a reward's
    // inside its {"coupon"} or {"feature_grant"} wrapper.
    static QStringList changedFields(const api::AuditEntry &entry);
    // How deep those fields sit in the JSON: 1, or 2 inside a wrapper.
    static int fieldDepth(const api::AuditEntry &entry);
    // A side as indented JSON, or a word when there is none.
    static QString sideText(const api::JsonValue &side);
    static QString actorText(const api::AuditActor &actor);
    static ExportColumns columns();
    static ExportRow cells(const api::AuditEntry &entry);
    static QString csvHeader() { return csvHeaderOf(columns()); }
    static QString csvLine(const api::AuditEntry &entry) { return csvLineOf(cells(entry)); }

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override
    {
        m_rows.clear();
        m_changed.clear();
    }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    api::AuditLogRequest m_filter;
    QList<api::AuditEntry> m_rows;
    QStringList m_changed; // per row, worked out once: painting asks often
};

} // namespace md::models
