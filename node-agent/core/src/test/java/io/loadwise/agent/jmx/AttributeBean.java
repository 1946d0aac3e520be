package io.loadwise.agent.jmx;

import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/** A read-only dynamic MBean with fixed attributes, spelled exactly as a real server spells them. */
final class AttributeBean implements DynamicMBean {

    private final Map<String, Object> attributes;

    AttributeBean(Map<String, Object> attributes) {
        this.attributes = Map.copyOf(attributes);
    }

    @Override
    public Object getAttribute(String name) throws AttributeNotFoundException {
        if (!attributes.containsKey(name)) {
            throw new AttributeNotFoundException(name);
        }
        return attributes.get(name);
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String name : names) {
            if (attributes.containsKey(name)) {
                list.add(new Attribute(name, attributes.get(name)));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        throw new UnsupportedOperationException("read-only");
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) {
        throw new UnsupportedOperationException(action);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] infos = attributes.keySet().stream()
                .map(n -> new MBeanAttributeInfo(n, Object.class.getName(), n, true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(AttributeBean.class.getName(), "test bean", infos, null, null, null);
    }
}
