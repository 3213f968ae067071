// An admin list whose rows are edited through forms (products, rewards): it
// keeps the last change saved through it, so the page's "Undo last change"
// can write back the values that change replaced.
#pragma once

#include "models/common/ListTableModel.h"

#include <QCoreApplication>

namespace md::models {

class EditableListModel : public ListTableModel
{
public:
    // Asks the backend for the rows again.
    virtual void reload() = 0;
    // Writes back what the last remembered save replaced; answers the id of
    // what it undid. Refused when there is nothing to undo.
    virtual QFuture<api::Result<QString>> undoLast() = 0;
    // A row's record id, and the row of an id (-1 when none has it): the
    // page keeps a record selected across a reload by it.
    virtual QString idAt(int row) const = 0;
    virtual int rowOf(const QString &id) const = 0;

protected:
    using ListTableModel::ListTableModel;

    static QFuture<api::Result<QString>> nothingToUndo()
    {
        return QtFuture::makeReadyFuture(api::Result<QString>(api::ApiError::local(
            QStringLiteral("nothing_to_undo"),
            QCoreApplication::translate("EditableListModel", "There is no change to undo."))));
    }
};

} // namespace md::models
