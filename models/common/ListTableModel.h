// What the admin pages' tables share: one backend read fills the rows; an
// answer to an older reload is dropped; errors are signalled, not shown.
#pragma once

#include "services/api/Result.h"

#include <QAbstractTableModel>
#include <QFuture>

namespace md::models {

class ListTableModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ListTableModel)

public:
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columns;
    }

Q_SIGNALS:
    void loaded();
    void failed(const md::api::ApiError &error);

protected:
    ListTableModel(int columns, QObject *parent)
        : QAbstractTableModel(parent)
        , m_columns(columns)
    {}

    // Waits for `reply`; when it is the newest, `use` gets its value (and
    // calls replaceRows), else `failed` is signalled.
    template <typename T, typename F> void load(QFuture<api::Result<T>> reply, F use)
    {
        const quint64 generation = ++m_generation;
        reply.then(this, [this, generation, use](const api::Result<T> &result) {
            if (generation != m_generation)
                return;
            if (!result) {
                Q_EMIT failed(result.error());
                return;
            }
            use(result.value());
        });
    }

    template <typename F> void replaceRows(F assign)
    {
        beginResetModel();
        assign();
        endResetModel();
        Q_EMIT loaded();
    }

private:
    int m_columns;
    quint64 m_generation = 0;
};

} // namespace md::models
