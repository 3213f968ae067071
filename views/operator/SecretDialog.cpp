#include "views/operator/SecretDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

SecretDialog::SecretDialog(const QString &title, const QString &intro, const QString &secret,
                           QWidget *parent)
    : QDialog(parent)
    , m_secret(new QLineEdit(secret, this))
    , m_copy(new QPushButton(tr("&Copy"), this))
{
    setWindowTitle(title);
    auto *introLabel =
        new QLabel(intro + u"<p><b>%1</b></p>"_s.arg(
                               tr("It is shown only now: copy it before closing this window.")),
                   this);
    introLabel->setWordWrap(true);
    m_secret->setObjectName(u"secret"_s);
    m_secret->setReadOnly(true);
    m_secret->setMinimumWidth(m_secret->fontMetrics().horizontalAdvance(secret) + 24);
    m_copy->setObjectName(u"copySecret"_s);
    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(m_copy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(introLabel);
    layout->addLayout(row);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_secret->text());
        m_copy->setText(tr("Copied"));
    });
    m_secret->selectAll();
    m_secret->setFocus();
}

} // namespace md::views
