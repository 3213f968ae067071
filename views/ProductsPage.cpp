#include "views/ProductsPage.h"

#include "models/ProductEdit.h"
#include "models/ProductListModel.h"
#include "views/ProductDialog.h"

#include <QLabel>
#include <QTableView>

namespace md::views {

ProductsPage::ProductsPage(backend::BillingBackend *backend, QWidget *parent)
    : EditorPage(new models::ProductListModel(backend), tr("Products could not be read: %1"),
                 parent)
    , m_model(static_cast<models::ProductListModel *>(table()->model()))
{
    table()->setObjectName(QStringLiteral("productTable"));
}

void ProductsPage::refresh()
{
    m_model->reload();
}

ProductDialog *ProductsPage::editSelected()
{
    const QModelIndex current = table()->currentIndex();
    if (!current.isValid())
        return nullptr;
    auto *dialog = new ProductDialog(m_model, m_model->product(current.row()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ProductDialog::saved, this,
            [this](const api::Product &before, const api::Product &after) {
                m_lastChange = {before, after};
                saved(tr("Saved %1 (version %2).").arg(after.id).arg(after.version));
                refresh();
            });
    dialog->open();
    return dialog;
}

void ProductsPage::undo()
{
    if (!m_lastChange)
        return;
    const auto [before, after] = *m_lastChange;
    m_model->save(after.id, models::ProductEdit::undo(before, after))
        .then(this, [this, id = before.id](const api::Result<api::Product> &result) {
            if (result)
                m_lastChange.reset();
            undone(result ? QString() : result.error().message,
                   tr("Undid the last change to %1.").arg(id));
            refresh();
        });
}

} // namespace md::views
