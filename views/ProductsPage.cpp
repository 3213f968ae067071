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
                m_model->remember(before, after);
                saved(tr("Saved %1 (version %2).").arg(after.id).arg(after.version));
                refresh();
            });
    dialog->open();
    return dialog;
}

} // namespace md::views
