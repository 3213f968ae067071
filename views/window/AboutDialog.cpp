#include "views/window/AboutDialog.h"

#include "models/connection/WorkspaceStatus.h"
#include "services/api/Version.h"

#include <QApplication>
#include <QClipboard>
#include <QDate>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

QString catalogueText(const api::CatalogueInfo &catalogue)
{
    const QDate taken = QDate::fromString(catalogue.generated, Qt::ISODate);
    const QString date = taken.isValid() ? QLocale().toString(taken, QLocale::ShortFormat)
                                         : AboutDialog::tr("an undated snapshot");
    return AboutDialog::tr("%1\ntaken %2, %Ln models", "", int(catalogue.models))
        .arg(catalogue.source.isEmpty() ? AboutDialog::tr("(source not given)") : catalogue.source,
             date);
}

} // namespace

AboutDialog::AboutDialog(backend::BillingBackend *backend, QWidget *parent)
    : QDialog(parent)
    , m_form(new QFormLayout)
{
    setWindowTitle(tr("About Meterdesk"));
    auto *icon = new QLabel(this);
    icon->setPixmap(QIcon(u":/icons/meterdesk.svg"_s).pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);
    auto *title =
        new QLabel(u"<b style='font-size:large'>Meterdesk %1</b><br>%2"_s.arg(
                       api::meterdeskVersion(), tr("Desktop console for usage-based billing.")),
                   this);

    auto *text = new QVBoxLayout;
    text->addWidget(title);
    text->addLayout(m_form);
    auto *root = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    root->addLayout(top);
    top->addWidget(icon);
    top->addLayout(text, 1);
    // The rows fill in as the answers arrive: the dialog grows to fit them.
    root->setSizeConstraint(QLayout::SetFixedSize);

    addRow(tr("Version:"), u"version"_s, api::meterdeskVersion());
    addRow(tr("Qt:"), u"qtVersion"_s,
           tr("%1 (built with %2)")
               .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
    addRow(tr("Licence:"), u"licence"_s,
           tr("MIT, for Meterdesk's source code.\n"
              "The console links Qt Charts, which is GPL v3:\n"
              "as built, it is distributed under the GPL v3."));
    m_connection = addRow(tr("Connected to:"), u"connection"_s, tr("asking…"));
    m_catalogue = addRow(tr("Price catalogue:"), u"catalogue"_s, tr("asking…"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("&Copy details"), QDialogButtonBox::ActionRole);
    QPushButton *aboutQt = buttons->addButton(tr("About &Qt"), QDialogButtonBox::HelpRole);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(details()); });
    connect(aboutQt, &QPushButton::clicked, this, [this] { QMessageBox::aboutQt(this); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    root->addWidget(buttons);

    // Who answers: the connection first, then its engine's version and catalogue.
    models::WorkspaceStatus status(backend);
    status.connection().then(this, [this](const api::Result<backend::ConnectionInfo> &info) {
        if (!info) {
            m_connection->setText(tr("not known: %1").arg(info.error().message));
            return;
        }
        m_where = info.value().kind == "remote"_L1
                      ? tr("%1\nmeterdesk-server").arg(info.value().location)
                      : tr("%1\nembedded engine").arg(info.value().location);
        showConnection();
    });
    status.about().then(this, [this](const api::Result<api::AboutInfo> &about) {
        if (!about) {
            m_catalogue->setText(tr("not known: %1").arg(about.error().message));
            return;
        }
        m_engineVersion = about.value().version;
        m_catalogue->setText(catalogueText(about.value().catalogue));
        showConnection();
    });
}

void AboutDialog::showConnection()
{
    if (!m_where.isEmpty())
        m_connection->setText(m_engineVersion.isEmpty() ? m_where
                                                        : m_where + u' ' + m_engineVersion);
}

AboutDialog::~AboutDialog() = default;

QLabel *AboutDialog::addRow(const QString &label, const QString &name, const QString &text)
{
    auto *value = new QLabel(text, this);
    value->setObjectName(name);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_form->addRow(label, value);
    m_rows.append(value);
    return value;
}

QString AboutDialog::details() const
{
    QStringList lines{u"Meterdesk %1"_s.arg(api::meterdeskVersion())};
    for (QLabel *row : m_rows) {
        const auto *label = qobject_cast<QLabel *>(m_form->labelForField(row));
        lines << (label ? label->text() + u' ' : QString()) + row->text().replace(u'\n', u"; "_s);
    }
    return lines.join(u'\n');
}

} // namespace md::views
