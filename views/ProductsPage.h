// Products (admins): every product's newest version; Edit… opens the form,
// "Undo last change" writes back the values the last save replaced.
#pragma once

#include "services/api/Product.h"
#include "views/EditorPage.h"

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ProductListModel;
}

namespace md::views {

class ProductDialog;

class ProductsPage final : public EditorPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductsPage)

public:
    explicit ProductsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    // Opens the form on the selected product (window-modal); null without one.
    ProductDialog *editSelected();
    models::ProductListModel *model() const { return m_model; }

protected:
    void edit() override { editSelected(); }

private:
    models::ProductListModel *m_model;
};

} // namespace md::views
