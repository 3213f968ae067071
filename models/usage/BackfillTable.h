// What the usage backfill's tables share (UsageChangeModel, UsageNoBalanceModel,
// UsageRefusalModel): the rows of one of UsageBackfill's lists, read again on
// reload(), under a fixed set of columns.
#pragma once

#include "models/usage/UsageBackfill.h"

#include <QAbstractTableModel>

#include <functional>

namespace md::models {

template <typename Row> class BackfillTable : public QAbstractTableModel
{
public:
    // What the backfill holds now.
    void reload()
    {
        beginResetModel();
        m_rows = m_read();
        endResetModel();
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columns;
    }

protected:
    BackfillTable(int columns, std::function<QList<Row>()> read, QObject *parent)
        : QAbstractTableModel(parent)
        , m_columns(columns)
        , m_read(std::move(read))
    {}

    // The row of a valid index of this model, or none.
    const Row *rowOf(const QModelIndex &index) const
    {
        return checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
                   ? &m_rows.at(index.row())
                   : nullptr;
    }

private:
    int m_columns;
    std::function<QList<Row>()> m_read;
    QList<Row> m_rows;
};

} // namespace md::models
