// What the BalanceListModel tests share: a windowed table fetches the pages
// that are asked for, so a test that reads every row asks for each and waits
// for it on the model's own signal.
#pragma once

#include "models/balances/BalanceListModel.h"

#include <QSignalSpy>

namespace md::test {

inline bool loadEveryRow(models::BalanceListModel &model)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.balanceAt(row))
            continue;
        QSignalSpy arrived(&model, &QAbstractItemModel::dataChanged);
        while (!model.isLoaded(row))
            if (!arrived.wait(10000))
                return false;
    }
    return true;
}

} // namespace md::test
