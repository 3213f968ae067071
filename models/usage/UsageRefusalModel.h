// The usage backfill's refused events as a table (UsageBackfill): the dry
// run's, or the commit's, each with its line in the file and the server's reason.
#pragma once

#include "models/usage/BackfillTable.h"

namespace md::models {

class UsageRefusalModel final : public BackfillTable<UsageBackfill::Refusal>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageRefusalModel)

public:
    enum Column {
        LineColumn,
        CustomerColumn,
        FeatureColumn,
        StatusColumn,
        ReasonColumn,
        ColumnCount
    };

    explicit UsageRefusalModel(const UsageBackfill *backfill, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace md::models
