// The lines of one billing period on the Charges tab (docs/billing.md), each
// in the console's words: a plan's fixed price times its quantity, or a
// feature's usage past its grant and the billing units it was billed as,
// with the amount. The same words go into the statement's PDF and workbook.
#pragma once

#include "services/api/ChargesPreview.h"

#include <QAbstractTableModel>

namespace md::models {

class ChargeLinesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChargeLinesModel)

public:
    enum Column { WhatColumn, QuantityColumn, BilledColumn, AmountColumn, ColumnCount };

    explicit ChargeLinesModel(QObject *parent = nullptr);

    void setLines(const QList<api::ChargeLine> &lines);
    const QList<api::ChargeLine> &lines() const { return m_lines; }

    // "Plan pro, 3 seats" or "calls: 35 past the grant, billed as 40".
    static QString words(const api::ChargeLine &line);
    static QString title(int column);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<api::ChargeLine> m_lines;
};

} // namespace md::models
