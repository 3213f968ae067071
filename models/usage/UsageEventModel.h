// AI usage events (newest first) from the usage events list, paged on demand
// and narrowed by customer, feature, model and time range; stale answers are
// dropped when the filter changes.
#pragma once

#include "services/backend/BillingBackend.h"

#include "models/common/ExportRow.h"
#include "models/common/PagedTableModel.h"

namespace md::models {

class UsageEventModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageEventModel)

public:
    enum Column {
        TimeColumn,
        CustomerColumn,
        FeatureColumn,
        ModelColumn,
        TokensColumn,
        ValueColumn,
        ColumnCount
    };
    static constexpr int RawValueRole = Qt::UserRole;

    explicit UsageEventModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Only customer, feature, model, from and to are used.
    void setFilter(const api::PageRequest &filter);
    const api::PageRequest &filter() const { return m_filter; }
    const QList<api::UsageEvent> &events() const { return m_rows; }
    // What an event's value counts, named: its feature's name ("AI
    // credits"), or its id until the features are read. Events of several
    // features sit in one column, so each value says its own unit.
    QString unitOf(const QString &featureId) const { return m_units.value(featureId, featureId); }

    // Every token of an event, all pools together.
    static qint64 totalTokens(const api::UsageEvent &event);
    // What an export writes of an event (docs/export.md): its tokens in
    // all, then each pool's as JSON.
    static ExportColumns columns();
    static ExportRow cells(const api::UsageEvent &event);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    api::PageRequest m_filter;
    QList<api::UsageEvent> m_rows;
    QHash<QString, QString> m_units; // feature id → name
    bool m_unitsAsked = false;
};

} // namespace md::models
