// Products (admins): every product's newest version; Edit… (Enter or
// double-click) opens the form, and "Undo last change" writes back the
// values the last save replaced.
#pragma once

#include "services/api/Product.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ProductListModel;
}

namespace md::views {

class ProductDialog;

class ProductsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductsPage)

public:
    explicit ProductsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    // Opens the form on the selected product (window-modal); null without one.
    ProductDialog *editSelected();
    void undoLastChange();
    models::ProductListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *undoButton() const { return m_undo; }
    QLabel *status() const { return m_status; }

private:
    backend::BillingBackend *m_backend;
    models::ProductListModel *m_model;
    QTableView *m_table;
    QPushButton *m_undo;
    QLabel *m_status;
    std::optional<std::pair<api::Product, api::Product>> m_lastChange; // before, after
};

} // namespace md::views
