// Step 1: a file, pasted text or the organization's Stripe account
// (StripeSourcePanel); for a file or text, its format, encoding and CSV separator, with
// a live preview of the first records (read as the path is typed, once typing
// pauses). A source committed before, to this connection, is named as such,
// with the choice to resume that commit or to import it again as a new run.
#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QStandardItemModel;
class QTimer;

namespace md::models {
class ImportSession;
}

namespace md::views {

class StripeSourcePanel;

class ImportSourcePage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportSourcePage)

public:
    explicit ImportSourcePage(models::ImportSession *session);

    // Reads `path` as the source (Browse… and tests).
    bool openFile(const QString &path);
    bool isComplete() const override;
    QLineEdit *pathEdit() const { return m_path; }
    QStandardItemModel *records() const { return m_previewModel; }
    // Says what was read, or why the source could not be.
    QLabel *statusLabel() const { return m_status; }
    // What an earlier commit of this source did, and the choice it leaves.
    QLabel *journalNote() const { return m_journalNote; }
    QRadioButton *resumeButton() const { return m_resume; }
    QRadioButton *newRunButton() const { return m_newRun; }
    QRadioButton *fromStripeButton() const { return m_fromStripe; }
    StripeSourcePanel *stripe() const { return m_stripe; }

private:
    void browse();
    void pathEdited();
    void noSource(const QString &why);
    void pasted();
    void settingsChanged();
    void sourceChanged();
    void showPreview();
    void showJournal();

    models::ImportSession *m_session;
    QRadioButton *m_fromFile;
    QRadioButton *m_fromPaste;
    QRadioButton *m_fromStripe;
    StripeSourcePanel *m_stripe;
    QLineEdit *m_path;
    QPlainTextEdit *m_paste;
    QComboBox *m_format;
    QComboBox *m_encoding;
    QComboBox *m_separator;
    QStandardItemModel *m_previewModel;
    QLabel *m_status;
    QLabel *m_journalNote;
    QRadioButton *m_resume;
    QRadioButton *m_newRun;
    QTimer *m_pasteDebounce;
    QTimer *m_pathDebounce;
    bool m_loaded = false;
};

} // namespace md::views
