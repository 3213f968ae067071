// The usage backfill's dry run as a table (UsageBackfill): each balance the
// file touches, before and after.
#pragma once

#include "models/UsageBackfill.h"

#include <QAbstractTableModel>

namespace md::models {

class UsageChangeModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageChangeModel)

public:
    enum Column {
        CustomerColumn,
        EntityColumn,
        FeatureColumn,
        BeforeColumn,
        AfterColumn,
        UsedColumn,
        EventsColumn,
        ColumnCount
    };

    explicit UsageChangeModel(const UsageBackfill *backfill, QObject *parent = nullptr);
    // What the backfill holds now.
    void reload();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const UsageBackfill *m_backfill;
    QList<UsageBackfill::Change> m_rows;
};

} // namespace md::models
