// The usage backfill's dry run as tables (UsageBackfill): each balance the
// file touches, before and after; and apart, the events recorded against a
// feature their customer (or entity) holds no balance of, which draw on nothing.
#pragma once

#include "models/usage/BackfillTable.h"

namespace md::models {

class UsageChangeModel final : public BackfillTable<UsageBackfill::Change>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageChangeModel)

public:
    // Remaining before, less used, is remaining after; what came from
    // rollovers (which remaining leaves out) is shown apart.
    enum Column {
        CustomerColumn,
        EntityColumn,
        FeatureColumn,
        BeforeColumn,
        UsedColumn,
        AfterColumn,
        RolloversColumn,
        EventsColumn,
        ColumnCount
    };

    explicit UsageChangeModel(const UsageBackfill *backfill, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

class UsageNoBalanceModel final : public BackfillTable<UsageBackfill::NoBalance>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageNoBalanceModel)

public:
    enum Column {
        CustomerColumn,
        EntityColumn,
        FeatureColumn,
        EventsColumn,
        ValueColumn,
        ColumnCount
    };

    explicit UsageNoBalanceModel(const UsageBackfill *backfill, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace md::models
