package io.loadwise.node.glassfish;

import io.loadwise.node.provision.ProvisioningException;
import java.io.IOException;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The one setting applied to {@code config/domain.xml} before the first start: the server's maximum
 * heap. {@code asadmin create-jvm-options} would write exactly this element, but only against a running
 * server that then needs a restart, which costs a full server start; every other setting asadmin applies
 * live.
 */
final class DomainXml {

    private static final String SERVER_CONFIG = "server-config";

    private DomainXml() {
    }

    /** Replaces the {@code -Xmx} jvm-option of server-config (adding one if there is none). */
    static void setMaxHeap(Path domainXml, int heapMb) throws ProvisioningException {
        Document document = parse(domainXml);
        Element javaConfig = serverJavaConfig(document, domainXml);
        NodeList options = javaConfig.getElementsByTagName("jvm-options");
        Element xmx = null;
        for (int i = 0; i < options.getLength(); i++) {
            Element option = (Element) options.item(i);
            if (option.getParentNode() == javaConfig && option.getTextContent().trim().startsWith("-Xmx")) {
                if (xmx != null) {
                    throw new ProvisioningException(domainXml + " has more than one -Xmx option in " + SERVER_CONFIG);
                }
                xmx = option;
            }
        }
        if (xmx == null) {
            xmx = document.createElement("jvm-options");
            javaConfig.appendChild(xmx);
        }
        xmx.setTextContent("-Xmx" + heapMb + "m");
        write(document, domainXml);
    }

    private static Element serverJavaConfig(Document document, Path domainXml) throws ProvisioningException {
        NodeList configs = document.getElementsByTagName("config");
        for (int i = 0; i < configs.getLength(); i++) {
            Element config = (Element) configs.item(i);
            if (SERVER_CONFIG.equals(config.getAttribute("name"))) {
                NodeList javaConfigs = config.getElementsByTagName("java-config");
                if (javaConfigs.getLength() == 1) {
                    return (Element) javaConfigs.item(0);
                }
                throw new ProvisioningException(domainXml + ": " + SERVER_CONFIG + " has "
                        + javaConfigs.getLength() + " java-config elements, expected 1");
            }
        }
        throw new ProvisioningException(domainXml + " has no <config name=\"" + SERVER_CONFIG + "\">");
    }

    private static Document parse(Path domainXml) throws ProvisioningException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(domainXml.toFile());
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new ProvisioningException("cannot read " + domainXml + ": " + e.getMessage(), e);
        }
    }

    private static void write(Document document, Path domainXml) throws ProvisioningException {
        try {
            var transformer = TransformerFactory.newInstance().newTransformer();
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            transformer.transform(new DOMSource(document), new StreamResult(domainXml.toFile()));
        } catch (TransformerException e) {
            throw new ProvisioningException("cannot write " + domainXml + ": " + e.getMessage(), e);
        }
    }
}
